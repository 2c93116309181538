/**
 * Page entry: connect to the core (Electron preload or host-mode sockets), start the window's replica host (a Web
 * Worker holding the window's Automerge replica), render the app. If the core cannot be reached at all, say so in
 * words instead of showing an empty window (App does the same when the core later refuses this page's secret). The
 * host replays the window outbox (replica/outbox-*.ts) once it runs.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { connectBridge } from "./bridge/connect.js";
import { startReplicaWorker } from "./replica-link/start-replica.js";
import { AppServicesContext, createAppServices } from "./state/app-services.js";
import { describeError } from "./state/describe-error.js";
import { App } from "./components/App.js";
import { FatalScreen, NEW_LINK, RefusedScreen } from "./components/FatalScreen.js";
import { ChopinError } from "../../shared/errors.js";
import { lastRefusal, reloadOnNewSecretLink } from "./bridge/secret.js";
import { WINDOW_ID } from "./replica/window-outbox.js";
import { pageStorage } from "./state/last-open.js";
import { followTheme } from "./state/theme.js";
import "./styles.css";

// Light or dark before the first frame, so a dark system never flashes a light page (state/theme.ts).
followTheme();
const root = createRoot(document.getElementById("root")!);
// Host mode: the new link Chopin prints after a restart, pasted into this same tab, takes effect (Electron has no
// address bar, and its URL never carries a secret).
if (!window.chopin) reloadOnNewSecretLink(window);

async function start() {
  try {
    const connection = await connectBridge();
    const replica = startReplicaWorker({
      connection,
      api: connection.bridge.api,
      windowId: WINDOW_ID,
      storage: pageStorage() as Storage | null,
      notify: (notice) => services.documents.getState().showNotice(notice),
    });
    const services = createAppServices(connection.bridge, replica, connection.coreLink);
    root.render(
      <StrictMode>
        <AppServicesContext.Provider value={services}>
          <App />
        </AppServicesContext.Provider>
      </StrictMode>,
    );
  } catch (error) {
    if (!(error instanceof ChopinError && error.code === "unauthorized")) return root.render(<FatalScreen message={describeError(error)} />);
    // No secret: after a refusal (then a reload) the same words as before it; otherwise, open the printed link.
    if (lastRefusal(window.sessionStorage)) return root.render(<RefusedScreen />);
    root.render(<FatalScreen title="Open Chopin from its link" message={describeError(error)} whenRestored={NEW_LINK} />);
  }
}

void start();
