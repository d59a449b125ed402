/** `npm start`: build when missing or stale, then run the server (migrates and seeds on start). */
import { register } from 'tsx/esm/api';
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
register();
await import('../src/server/main.ts');
