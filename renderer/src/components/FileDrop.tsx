/**
 * Markdown files dropped anywhere on the window are imported as private plans (documents store, importFiles). While
 * files are dragged over the window it says what a drop will do. Drags of anything but files (text, a link) are left to
 * the page (the editor takes dropped text as usual).
 */
import { useEffect, useState } from "react";
import { useServices } from "../state/app-services.js";

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") === true;

export function FileDrop() {
  const { documents } = useServices();
  const [over, setOver] = useState(false);
  useEffect(() => {
    // Nested elements fire enter/leave in pairs: count them so leaving a child does not hide the hint.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver(true);
    };
    const overWindow = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Without this the browser opens the file in place of the app.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) void documents.getState().importFiles(files);
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragover", overWindow);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragover", overWindow);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
    };
  }, [documents]);
  if (!over) return null;
  return (
    <div className="file-drop" role="status">
      <p>Drop Markdown files to import them as private plans</p>
    </div>
  );
}
