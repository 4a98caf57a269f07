// The worker thread of differential.mjs's watchedRunner: runs the programs the main thread posts
// on the module at workerData.url, a fresh instance after a crash (differential.mjs's runner),
// and posts back each trace. A step that never returns blocks this thread's event loop, so the
// progress goes to shared memory at each call the journal notes, where the main thread watches it.
import { parentPort, workerData } from "node:worker_threads";
import { loadModule, runner } from "./differential.mjs";

const progress = new Int32Array(workerData.progress);
const run = runner((n) => loadModule(workerData.url, n));

/** The program's progress: its step and journal's length, and one more call in all. */
function publish(step, calls) {
  Atomics.store(progress, 0, step);
  Atomics.store(progress, 1, calls);
  Atomics.add(progress, 2, 1);
}

// `stopAt` ({ step, calls }): where the program hung in an earlier worker; it stops right before
// that call (a throw: runProgram returns a crash whose journal ends in that call).
parentPort.on("message", async ({ seed, options, stopAt }) => {
  publish(-1, 0); // nothing of the last program's progress stays
  const onCall = ({ step, calls }) => {
    publish(step, calls.length);
    if (step === stopAt?.step && calls.length === stopAt.calls) throw new Error("stopped before the call that hung");
  };
  parentPort.postMessage(await run(seed, { ...options, onCall }));
});
