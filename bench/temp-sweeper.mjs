// The half of bench/temp.ts that outlives the bench: started detached (out of reach of Ctrl+C)
// with the run's temp folder as its argument, it reads the pids of the processes the run starts,
// one a line, on stdin. Stdin ends when the run ends, however it ends (SIGKILL included): then
// it stops those processes that are still the ones the run started and removes the folder.
// Plain JavaScript, so it starts in milliseconds without the TypeScript loader.
import { readFileSync, rmSync } from 'node:fs';

const root = process.argv[2];
/** pid → its start time, so that a pid the system has given to another process since is left alone. */
const started = new Map();

/** The start time and state of a live process (Linux /proc/PID/stat), or undefined once it is gone. */
function processStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (command) ": state is field 3, the start time field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return undefined;
  }
}

function stillOurs() {
  return [...started].filter(([pid, startTime]) => {
    const stat = processStat(pid);
    return stat !== undefined && stat.startTime === startTime && stat.state !== 'Z';
  });
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function sweep() {
  for (const [pid] of stillOurs()) signal(pid, 'SIGTERM');
  // Apache and nginx take their workers down on SIGTERM; give them the time to.
  const deadline = Date.now() + 5000;
  while (stillOurs().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const [pid] of stillOurs()) signal(pid, 'SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}

let partial = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) {
    const pid = Number(line);
    const stat = Number.isInteger(pid) && pid > 0 ? processStat(pid) : undefined;
    if (stat) started.set(pid, stat.startTime);
  }
});
process.stdin.on('end', () => void sweep());
process.stdin.on('error', () => void sweep());
