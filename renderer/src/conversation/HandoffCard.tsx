/**
 * A plan handed off from an agent chat (issue #27), as the chat shows it: a card naming the new plan, with a link that
 * opens it. The entry carrying it is written only after that plan was stored and listed, so the link always names a
 * plan that was made.
 *
 * What must stay true: the card is a region named for the plan ("Handed-off plan: <title>"), and its link is named
 * "Open <title>", so a screen reader hears which plan it opens.
 */
import type { ConversationEntryView } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";

export function HandoffCard({ handoff }: { handoff: NonNullable<ConversationEntryView["handoff"]> }) {
  const { documents } = useServices();
  return (
    <section className="handoff-card" aria-label={`Handed-off plan: ${handoff.title}`}>
      <span className="handoff-card-label">New plan</span>
      <button type="button" className="link-button handoff-card-link" aria-label={`Open ${handoff.title}`} onClick={() => void documents.getState().open(handoff.documentId)}>
        {handoff.title}
      </button>
    </section>
  );
}
