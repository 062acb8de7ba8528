// Starts the Attention Lab dev server on 127.0.0.1:PORT (default 5173) and prints its address.
// `npm start` runs this after `prestart` has built the engine.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const DEFAULT_PORT = 5173;
const configFile = fileURLToPath(new URL('../vite.config.js', import.meta.url));

/**
 * Reads the port from the PORT environment variable.
 * @param {string | undefined} value the raw PORT value
 * @returns {number} a valid TCP port
 */
function parsePort(value) {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

async function main() {
  const port = parsePort(process.env.PORT);
  const server = await createServer({
    configFile,
    server: { host: '127.0.0.1', port, strictPort: true },
  });
  try {
    await server.listen();
  } catch (err) {
    await server.close();
    throw err;
  }
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
  console.log(`\n  Attention Lab is running at ${url}\n  Press Ctrl+C to stop.\n`);

  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`Could not start the Attention Lab server: ${err.message}`);
  process.exit(1);
});
