// The PostgreSQL store (--database-url): see store.ts for how it works and where its parts are.
export { PostgresStore, type PostgresStoreOptions } from './store.js';
export { unreachable } from './connection.js';
