// Small helpers over node:http shared by the extension and the emulated server.

/** Reads a request body as text, refusing more than `maxBytes`. */
export async function readBody(request, maxBytes = 64 * 1024) {
  const chunks = [];
  let total = 0;
  for await (const chunk of request) {
    total += chunk.length;
    if (total > maxBytes) throw new Error('the body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function send(response, status, headers, body = '') {
  response.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

/** Listens on host:port (0 picks a free one) and resolves the base URL and a close(). */
export async function listen(server, host, port) {
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        // A test's hanging request must not hold the close.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
