/**
 * Benchmark results: what every suite hands back, the human table on stdout and the JSON file under bench/results/.
 * What must stay true: a row that could not be measured says "not available: <reason>" and carries no numbers;
 * figures are never invented or carried over from another run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpus } from "node:os";
import { BENCH_DIR } from "./child.js";

export type Metric = number | string;

export interface Row {
  /** What was measured, e.g. "yjs y-websocket" or "plain CodeMirror". */
  name: string;
  metrics: Record<string, Metric>;
  /** Set when the row could not be measured; metrics is then empty. */
  notAvailable?: string;
}

export interface Table {
  title: string;
  rows: Row[];
  /** Column order; defaults to the union of metric keys in row order. */
  columns?: string[];
}

export interface SuiteResult {
  suite: string;
  tables: Table[];
  notes: string[];
}

export interface SuiteContext {
  quick: boolean;
  log(message: string): void;
}

export type Suite = (ctx: SuiteContext) => Promise<SuiteResult>;

export function notAvailable(name: string, reason: string): Row {
  return { name, metrics: {}, notAvailable: reason };
}

function fmt(value: Metric | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return "n/a";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function renderTable(table: Table): string {
  const columns =
    table.columns ?? [...new Set(table.rows.flatMap((row) => Object.keys(row.metrics)))];
  const header = ["", ...columns];
  const body = table.rows.map((row) =>
    row.notAvailable !== undefined
      ? [row.name, `not available: ${row.notAvailable}`]
      : [row.name, ...columns.map((c) => fmt(row.metrics[c]))],
  );
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.filter((r) => r.length === header.length).map((r) => (r[i] ?? "").length)),
  );
  // Text columns read left-aligned, figures right-aligned.
  const textColumn = header.map((_, i) => i === 0 || table.rows.some((r) => typeof r.metrics[header[i]] === "string"));
  const line = (cells: string[]) =>
    cells.length === header.length
      ? `| ${cells.map((c, i) => (textColumn[i] ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`
      : `| ${cells[0].padEnd(widths[0])} | ${cells.slice(1).join(" ")}`;
  return [
    `### ${table.title}`,
    line(header),
    `|${widths.map((w, i) => (textColumn[i] ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`,
    ...body.map(line),
  ].join("\n");
}

export function renderSuite(result: SuiteResult): string {
  const parts = [`## ${result.suite}`, ...result.tables.map(renderTable)];
  if (result.notes.length > 0) parts.push(result.notes.map((n) => `- ${n}`).join("\n"));
  return parts.join("\n\n");
}

export interface RunRecord {
  startedAt: string;
  quick: boolean;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  suites: SuiteResult[];
  errors: { suite: string; message: string }[];
}

export function machineInfo(): RunRecord["machine"] {
  const list = cpus();
  return { cpus: list.length, cpuModel: list[0]?.model ?? "unknown", node: process.version, platform: process.platform };
}

/** Writes bench/results/<timestamp>.json and returns its path. */
export function writeRecord(record: RunRecord): string {
  const dir = join(BENCH_DIR, "results");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${record.startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(path, JSON.stringify(record, null, 2) + "\n");
  return path;
}
