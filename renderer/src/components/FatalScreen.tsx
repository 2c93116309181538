/**
 * The whole window when Chopin cannot be used from this page at all (no secret, or the core refused it): a sentence
 * that says what to do instead of an empty shell that looks alive.
 */
export function FatalScreen({ message }: { message: string }) {
  return (
    <main className="fatal" aria-label="Chopin could not start">
      <h1>Chopin could not start</h1>
      <p role="alert">{message}</p>
    </main>
  );
}
