/** The turn being watched: the person's message, then the reply streaming in, tool calls in their place. */
import { extension, type Extras } from '../extension.js';
import { recordedFailure } from '../failure.js';
import type { LiveTurn } from '../turn-model.js';
import { CompactionMarker } from './compaction-marker.js';
import { FailureNotice } from './failure-notice.js';
import { Message, Reasoning } from './message.js';

export function LiveTurnView({
  turn,
  extras,
  running,
}: {
  turn: LiveTurn;
  extras: Extras;
  running: boolean;
}) {
  const last = turn.blocks[turn.blocks.length - 1];
  return (
    <div class="live-turn" data-turn-id={turn.turnId}>
      {turn.userText !== undefined ? <Message role="user" text={turn.userText} /> : null}
      {turn.blocks.map((block, index) => {
        switch (block.kind) {
          case 'text':
            return (
              <Message key={index} role="assistant" text={block.text} streaming={running && block === last} />
            );
          case 'reasoning':
            return <Reasoning key={index} text={block.text} />;
          case 'tool':
            return (
              <extension.ToolCall
                key={block.callId}
                extras={extras}
                live={true}
                call={{
                  type: 'function_call',
                  name: block.name,
                  arguments: block.arguments,
                  call_id: block.callId,
                }}
              />
            );
          case 'notice':
            return (
              <div
                key={index}
                class={`notice ${block.level}`}
                role={block.level === 'error' ? 'alert' : undefined}
              >
                {block.text}
              </div>
            );
          case 'hook':
            // Text only: a hook's command is shown, never read as markup.
            return (
              <div key={index} class={block.warn ? 'hook-line warn' : 'hook-line'}>
                {block.text}
              </div>
            );
          case 'compaction':
            return (
              <CompactionMarker
                key={index}
                running={block.running}
                tokensBefore={block.tokensBefore}
                {...(block.tokensAfter !== undefined ? { tokensAfter: block.tokensAfter } : {})}
              />
            );
        }
      })}
      {running && (last === undefined || last.kind !== 'text') ? <div class="working">Working…</div> : null}
      {turn.ended === 'interrupted' ? <FailureNotice view={recordedFailure('interrupted')} /> : null}
    </div>
  );
}
