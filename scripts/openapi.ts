/** `npm run openapi`: writes docs/openapi.json from the routes' zod contracts (see src/server/openapi.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { OPENAPI_ENV, OPENAPI_FILE, openApiText } from '#server/openapi.ts';
import { openDatabase } from '#server/startup.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'hm-openapi-'));
try {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...OPENAPI_ENV }, { webDistDir: join(dataDir, 'no-web-build') });
  const database = openDatabase(config);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  writeFileSync(OPENAPI_FILE, openApiText(app));
  const paths = Object.keys((app.swagger() as { paths?: object }).paths ?? {}).length;
  console.log(`${OPENAPI_FILE}: ${paths} paths`);
  await app.close();
  await database.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
