import { parseArgs } from 'node:util';

/** The port to listen on: `--port N`, else PORT, else the default (0 picks a free one). */
export function portOption(fallback: number, argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): number {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } }, strict: false });
  const given = typeof values.port === 'string' ? values.port : env['PORT'];
  const port = given === undefined || given === '' ? fallback : Number(given);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port '${given}': give a number from 0 to 65535.`);
  return port;
}
