import path from 'node:path';
import type { Config } from './config';

/** Host, port and path of a service's URL: where it is, without its user or password. */
function address(url: string): string {
  const { host, pathname } = new URL(url);
  return pathname.length > 1 ? `${host}${pathname}` : host;
}

function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Where the app keeps its data, in words: never a password. */
export function whereTheDataIs(config: Config): string {
  const places: string[] = [];
  const inDataDir: string[] = [];
  if (config.DATABASE_URL) places.push(`PostgreSQL at ${address(config.DATABASE_URL)}`);
  else inDataDir.push('database');
  if (config.REDIS_URL) places.push(`Redis at ${address(config.REDIS_URL)}`);
  if (config.IMAGE_STORE === 's3') places.push(`the bucket ${config.S3_BUCKET}`);
  else inDataDir.push('images');
  const dataDir = path.resolve(config.DATA_DIR);
  if (inDataDir.length === 2) places.push(dataDir);
  else if (inDataDir.length === 1) places.push(`${dataDir} (${inDataDir[0]})`);
  return listed(places);
}

/**
 * The line a person reads once the app serves: where it runs and where its data is. It starts
 * "TapGram is running at <url> ", which scripts look for.
 */
export function runningLine(url: string, config: Config, workers = 1): string {
  const processes = workers > 1 ? ` (${workers} workers)` : '';
  return `TapGram is running at ${url}${processes} · data in ${whereTheDataIs(config)}`;
}
