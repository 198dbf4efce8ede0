/**
 * Picking a running turn up after a reload: the page keeps, per conversation in this tab
 * (sessionStorage), the running turn's id and the event id just before its `turn-started`. After a
 * reload it asks the stream to replay from there (`Last-Event-ID`), so the whole turn is shown again and
 * then goes on live. Event ids are `<boot>-<sequence>`, numbered per conversation.
 */
interface Resume {
  turnId: string;
  after: string;
}

const key = (conversationId: string) => `cody.turn.${conversationId}`;

/** Remembers the turn that `turn-started` (with event id `eventId`) began. */
export function rememberTurn(conversationId: string, turnId: string, eventId: string | undefined): void {
  const match = eventId ? /^(.+)-(\d+)$/.exec(eventId) : null;
  if (!match) return;
  const resume: Resume = { turnId, after: `${match[1]}-${Number(match[2]) - 1}` };
  try {
    sessionStorage.setItem(key(conversationId), JSON.stringify(resume));
  } catch {
    // No storage (private mode): a reload shows the turn from where it is instead.
  }
}

export function forgetTurn(conversationId: string): void {
  try {
    sessionStorage.removeItem(key(conversationId));
  } catch {
    // nothing to forget
  }
}

/** The event id to replay after, when the running turn `turnId` is the one this tab remembered. */
export function resumePoint(conversationId: string, turnId: string): string | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(key(conversationId)) ?? 'null') as Resume | null;
    return stored?.turnId === turnId ? stored.after : undefined;
  } catch {
    return undefined;
  }
}
