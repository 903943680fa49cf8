// Loaded into a benchmarked server with --require (and --expose-gc): on SIGUSR2 it collects
// garbage and prints the process's memory, so that memory per connection is measured without
// the noise of garbage not yet collected. Cluster workers share the primary's output, so each
// line names its process.
process.on('SIGUSR2', () => {
  if (global.gc) global.gc();
  process.stdout.write(`memory ${process.pid} ${JSON.stringify(process.memoryUsage())}\n`);
});
