import cluster from 'node:cluster';

/**
 * Loaded into a clustered server before the app (`spawnServer(env, { preload })`): on SIGUSR2 the
 * primary reports a failed write on every worker's channel, as Node reports a message sent to a
 * worker that died a moment before (EPIPE), having printed `channels failed`.
 */
if (cluster.isPrimary) {
  process.on('SIGUSR2', () => {
    process.stdout.write('channels failed\n');
    for (const worker of Object.values(cluster.workers ?? {})) {
      worker?.process.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    }
  });
}
