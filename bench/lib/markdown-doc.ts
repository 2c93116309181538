/**
 * A deterministic Markdown plan document of about `targetChars` characters (headings, paragraphs, lists, code,
 * links), so every run and both editor modes type into the same text. No randomness: the same input every time.
 */
const WORDS =
  "plan relay editor document sync change keystroke latency budget snapshot render team agent review merge branch test cache index history version peer token".split(" ");

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 13 + ((seed * i) % 5)) % WORDS.length]);
  const s = out.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

export function makeMarkdown(targetChars: number): string {
  const parts: string[] = ["# Bench plan\n"];
  let length = parts[0].length;
  for (let section = 1; length < targetChars; section++) {
    const block = [
      `\n## ${section}. ${sentence(section, 4).slice(0, -1)}\n`,
      `\n${sentence(section, 18)} ${sentence(section + 1, 14)} See [notes](https://example.com/${section}) and \`code_${section}\`.\n`,
      `\n- ${sentence(section + 2, 8)}\n- **${sentence(section + 3, 5)}**\n- _${sentence(section + 4, 6)}_\n`,
      section % 4 === 0 ? `\n\`\`\`ts\nconst step${section} = ${section} * 2; // ${sentence(section, 5)}\n\`\`\`\n` : "",
    ].join("");
    parts.push(block);
    length += block.length;
  }
  return parts.join("").slice(0, targetChars);
}
