/**
 * This app's experimental settings (issue #27) as the window shows them: read once, then followed through
 * "experimental-settings-changed", so the sidebar's Agents entry and the Agents page appear and go the moment agent chat
 * is turned on or off here (in this window or another).
 *
 * What must stay true: an answer to the first read that arrives after an event is not shown over it (the event is newer).
 */
import { useEffect, useState } from "react";
import type { ExperimentalSettings } from "../../../shared/api.js";
import { useServices } from "./app-services.js";
import { describeError } from "./describe-error.js";

export interface ExperimentalSettingsView {
  settings: ExperimentalSettings | null;
  error: string | null;
  /** Shows what a save answered at once (its event follows). */
  show(settings: ExperimentalSettings): void;
}

export function useExperimentalSettings(): ExperimentalSettingsView {
  const { bridge } = useServices();
  const [settings, setSettings] = useState<ExperimentalSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = bridge.on("experimental-settings-changed", (next) => {
      heard = true;
      if (live) setSettings(next);
    });
    bridge.api.getExperimentalSettings().then(
      (loaded) => live && !heard && setSettings(loaded),
      (failure: unknown) => live && setError(describeError(failure)),
    );
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  return { settings, error, show: setSettings };
}
