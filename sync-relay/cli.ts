/**
 * `npm run relay -- ...`: the relay process entry. Parses arguments (cli-commands.ts), runs a user subcommand or serves
 * until SIGTERM/SIGINT, then shuts down gracefully (stop accepting, close sockets, flush, close the database) and
 * exits. What must stay true: once the stop is done the process ends, whatever automerge-repo still has pending (a
 * document lookup waits up to a minute on its own timer, which kept a stopped relay up that long).
 */
import { ChopinError } from "../shared/errors.js";
import { HELP, USAGE, parseCli, runUserCommand } from "./cli-commands.js";
import { startRelay } from "./server.js";
import { describeRelayFailure } from "./startup-errors.js";
import { startupNotes } from "./startup-notes.js";

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

async function main(): Promise<number> {
  let command;
  try {
    command = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    io.err(error instanceof ChopinError ? error.message : String(error));
    io.err(USAGE);
    return 2;
  }
  if (command.kind === "help") {
    io.out(HELP);
    return 0;
  }
  if (command.kind !== "serve") return runUserCommand(command, io);

  let relay;
  try {
    relay = await startRelay({
      dataDir: command.dataDir,
      port: command.port,
      host: command.host,
      github: command.github,
      allowQueryToken: command.allowQueryToken,
      log: io.out,
    });
  } catch (error) {
    io.err(`relay failed: ${describeRelayFailure(error, command)}`);
    return 1;
  }
  if (command.github) {
    const { apiUrl, allowedUsers = [], allowedOrgs = [] } = command.github;
    const who =
      allowedUsers.length === 0 && allowedOrgs.length === 0
        ? "EVERY GitHub user (no --allowed-users or --allowed-orgs)"
        : [allowedUsers.length ? `users ${allowedUsers.join(", ")}` : "", allowedOrgs.length ? `members of ${allowedOrgs.join(", ")}` : ""]
            .filter(Boolean)
            .join(" and ");
    io.out(`GitHub admission via ${apiUrl}: admits ${who}`);
  }
  const notes = startupNotes({
    host: command.host,
    port: relay.port,
    dataDir: command.dataDir,
    activeUsers: relay.users.activeCredentials().size,
    githubAdmission: command.github !== undefined,
  });
  for (const note of notes) io.out(note);
  io.out(`team index document: ${relay.teamIndexDocumentId}`);
  // One machine-readable line that scripts and tests wait for.
  io.out(`RELAY_READY ${JSON.stringify({ url: relay.url, port: relay.port, teamIndexDocumentId: relay.teamIndexDocumentId })}`);
  await new Promise<void>((resolve) => {
    // Kept listening after the first: a second signal (Ctrl-C reaches the relay from the terminal and from its
    // launcher) must not take Node's default, which ends the process before storage is flushed.
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return io.out(`${signal}: already shutting down`);
      stopping = true;
      io.out(`${signal}: shutting down`);
      resolve();
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  });
  await relay.close();
  return exitNow(0);
}

/** Ends the process once what was printed has been written out (a pipe's writes are asynchronous). */
function exitNow(code: number): Promise<number> {
  return new Promise(() => {
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    io.err(`relay failed: ${describeRelayFailure(error)}`);
    process.exitCode = 1;
  },
);
