/**
 * A CPU profile of the calling thread, through node:inspector. `--cpu-prof` writes nothing for a worker thread ended
 * with terminate() (the mesh's client threads are), so a thread profiles itself and writes the file before it says
 * it is done. Used only when a bench knob asks for it (BENCH_CLIENT_CPU_PROF_DIR).
 */
import { Session } from "node:inspector/promises";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ThreadProfile {
  /** Stops profiling and writes `<dir>/<name>.cpuprofile`; returns the file's path. */
  stop(): Promise<string>;
}

export async function startThreadProfile(dir: string, name: string): Promise<ThreadProfile> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${name}.cpuprofile`);
      writeFileSync(path, JSON.stringify(profile));
      return path;
    },
  };
}
