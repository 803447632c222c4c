export { startExampleServer } from './server.js';
export type { ExampleEntries } from './presets.js';
export { exampleEntries } from './presets.js';
export { defaultClient, defaultUsers } from './defaults.js';
export type {
  ExampleClient,
  ExampleServer,
  ExampleServerOptions,
  ExampleUser,
  Fault,
  FaultEndpoint,
  RecordedRequest,
  ResponseFault,
} from './types.js';
