// Summarises CPU profiles (`node --cpu-prof`): the functions with the most self time.
// Run: npx tsx bench/profile-summary.ts <file.cpuprofile | directory> [from-us to-us]
// `npm run bench` with BENCH_PROFILE=1 profiles its servers and prints this for the socket runs.
import fs from 'node:fs';
import { printProfile, profileFiles, summarizeProfiles } from './lib/cpu-profile';

const [target, from, to] = process.argv.slice(2);
if (!target) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile | directory> [from to]');
  process.exit(1);
}
const files = fs.statSync(target).isDirectory() ? profileFiles(target) : [target];
const windows = from && to ? [{ from: Number(from), to: Number(to) }] : [];
printProfile(summarizeProfiles(files, windows, 30));
