#!/bin/sh
# A self-signed certificate for https://localhost:8443, for trying
# deploy/compose.yaml on one machine; use your own certificate elsewhere.
set -eu
cd "$(dirname "$0")"
mkdir -p certs
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
  -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout certs/tls.key -out certs/tls.crt
chmod 600 certs/tls.key
