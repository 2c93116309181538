/**
 * Settings → Appearance: System (follow the system's light or dark), Light or Dark. Takes effect at once in every
 * window of the app, without the form's Save (state/theme.ts).
 */
import { useId, useState } from "react";
import { chooseTheme, readThemeChoice, THEME_CHOICES, type ThemeChoice } from "../state/theme.js";

const LABELS: Record<ThemeChoice, string> = { system: "Same as the system", light: "Light", dark: "Dark" };

export function ThemePicker() {
  const [choice, setChoice] = useState<ThemeChoice>(() => readThemeChoice());
  const name = useId();
  return (
    <fieldset className="theme-picker">
      <legend>Theme</legend>
      {THEME_CHOICES.map((option) => (
        <label key={option} className="toggle">
          <input
            type="radio"
            name={name}
            value={option}
            checked={choice === option}
            onChange={() => {
              setChoice(option);
              chooseTheme(option);
            }}
          />
          <span>{LABELS[option]}</span>
        </label>
      ))}
    </fieldset>
  );
}
