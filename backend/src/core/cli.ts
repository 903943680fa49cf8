import { ConfigError, loadConfig, type Config } from './config';
import { keepNewFilesPrivate } from './private-files';

/** The configuration, or a one-line message naming the bad variable and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Runs a command-line program: a failure prints one line, not a stack trace, and exits 1. */
export function runCli(main: () => Promise<void>): void {
  keepNewFilesPrivate();
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * Reads a secret: typed at a terminal without echo (asked twice, to catch a typo), or the first
 * line of a piped standard input, so that scripts and tests can pass it.
 */
export async function readSecret(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLine(process.stdin);
  const first = await typeHidden(prompt);
  if ((await typeHidden('Again: ')) !== first) throw new Error('The two entries differ');
  return first;
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0];
  if (!line) throw new Error('Nothing on standard input: pipe the password as its first line');
  return line;
}

function typeHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003' || char === '\u0004') return done(new Error('Cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
