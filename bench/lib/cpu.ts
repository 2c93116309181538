/**
 * CPU accounting for benchmark processes. A relay runs in its own process, so its CPU is read from
 * /proc/<pid>/stat (utime + stime, in clock ticks); the bench process itself uses process.cpuUsage().
 * Percent is of ONE core (200% is both cores of this machine busy).
 */
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU seconds (user + system) a process has used so far, or NaN when /proc is unreadable (not Linux, exited). */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses; fields after the LAST ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state is index 0, so utime (field 14) is index 11 and stime (field 15) index 12.
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

export interface CpuMeter {
  /** CPU percent of one core used since start(). */
  stop(): number;
}

/** Measures another process's CPU between now and stop(). */
export function meterPid(pid: number): CpuMeter {
  const cpu0 = processCpuSeconds(pid);
  const t0 = performance.now();
  return {
    stop() {
      const cpu1 = processCpuSeconds(pid);
      const wall = (performance.now() - t0) / 1000;
      return ((cpu1 - cpu0) / wall) * 100;
    },
  };
}

/** Measures this process's CPU between now and stop(). */
export function meterSelf(): CpuMeter {
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    stop() {
      const u = process.cpuUsage(u0);
      const wall = (performance.now() - t0) / 1000;
      return ((u.user + u.system) / 1e6 / wall) * 100;
    },
  };
}
