/** Small inline SVG icons (no icon font, nothing fetched). Decorative: the button around each carries the name. */
import type { ReactElement } from "react";

const paths: Record<string, ReactElement> = {
  plus: <path d="M8 3v10M3 8h10" />,
  search: (
    <>
      <circle cx="7" cy="7" r="4.25" />
      <path d="m10.2 10.2 3.3 3.3" />
    </>
  ),
  gear: (
    <>
      <circle cx="8" cy="8" r="2.2" />
      <path d="M8 1.8v1.6M8 12.6v1.6M14.2 8h-1.6M3.4 8H1.8M12.4 3.6l-1.1 1.1M4.7 11.3l-1.1 1.1M12.4 12.4l-1.1-1.1M4.7 4.7 3.6 3.6" />
    </>
  ),
  clock: (
    <>
      <circle cx="8" cy="8" r="5.75" />
      <path d="M8 4.8V8l2.2 1.6" />
    </>
  ),
  list: <path d="M5.5 4h8M5.5 8h8M5.5 12h8M2.5 4h.01M2.5 8h.01M2.5 12h.01" />,
  chat: <path d="M2.5 3.5h11v7.5H7l-3 2.5V11H2.5z" />,
  star: <path d="m8 2.25 1.75 3.6 3.95.55-2.87 2.77.7 3.93L8 11.22 4.47 13.1l.7-3.93L2.3 6.4l3.95-.55z" />,
  agents: (
    <>
      <rect x="3" y="5" width="10" height="8" rx="2" />
      <path d="M8 2.5V5M6 9h.01M10 9h.01" />
    </>
  ),
  share: (
    <>
      <circle cx="4" cy="8" r="1.75" />
      <circle cx="12" cy="4" r="1.75" />
      <circle cx="12" cy="12" r="1.75" />
      <path d="m5.6 7.2 4.8-2.4M5.6 8.8l4.8 2.4" />
    </>
  ),
  more: <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" />,
  doc: <path d="M4 1.75h5.25L12 4.5v9.75H4zM9 1.75V4.75h3" />,
  lock: (
    <>
      <rect x="3.5" y="7" width="9" height="6.5" rx="1.25" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </>
  ),
  people: (
    <>
      <circle cx="6" cy="5.5" r="2.25" />
      <path d="M2 13c.4-2.3 2-3.5 4-3.5s3.6 1.2 4 3.5" />
      <circle cx="11.5" cy="6" r="1.75" />
      <path d="M11 9.6c1.6 0 2.7 1 3 2.9" />
    </>
  ),
  close: <path d="m4 4 8 8M12 4l-8 8" />,
  copy: (
    <>
      <rect x="5.25" y="5.25" width="8" height="8" rx="1.25" />
      <path d="M10.75 3.25V2.75h-8v8h.5" />
    </>
  ),
  archive: (
    <>
      <rect x="2" y="2.75" width="12" height="3" rx=".75" />
      <path d="M3 5.75v7.5h10v-7.5M6.5 8.5h3" />
    </>
  ),
};

export type IconName = keyof typeof paths;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name]}
    </svg>
  );
}
