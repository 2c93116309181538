/**
 * Page entry: connect to the core (Electron preload or host-mode sockets), start the replica, render the app.
 * If the core cannot be reached at all, say so in words instead of showing an empty window (App does the same when
 * the core later refuses this page's secret).
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { connectBridge } from "./bridge/connect.js";
import { createReplica } from "./replica/replica.js";
import { AppServicesContext, createAppServices } from "./state/app-services.js";
import { describeError } from "./state/describe-error.js";
import { App } from "./components/App.js";
import { FatalScreen } from "./components/FatalScreen.js";
import "./styles.css";

const root = createRoot(document.getElementById("root")!);

async function start() {
  try {
    const connection = await connectBridge();
    const repo = createReplica(connection.replicaAdapter);
    const services = createAppServices(connection.bridge, repo, connection.coreLink);
    root.render(
      <StrictMode>
        <AppServicesContext.Provider value={services}>
          <App />
        </AppServicesContext.Provider>
      </StrictMode>,
    );
  } catch (error) {
    root.render(<FatalScreen message={describeError(error)} />);
  }
}

void start();
