/** `cody completion bash|zsh|fish`: a script that completes commands, options and conversation ids. */
import { allApiNames, providerList, signInModes } from '../core/index.js';
import { APPROVAL_POLICIES } from '../core/index.js';
import { REASONING_LEVELS } from '../protocol/reasoning-levels.js';
import { ExitCode } from './exit-codes.js';
import type { Io } from './io.js';

const ID_COMMANDS = ['resume', 'show', 'status', 'delete', 'fork', 'export', 'rename'];
const OPTIONS = [
  '--help',
  '--version',
  '--conversation',
  '--continue',
  '--resume',
  '--approval',
  '--reasoning',
  '--ephemeral',
  '--json',
  '--output-format',
  '--plain',
  '--auto-approve',
  '--format',
  '--redact',
  '--search',
  '--limit',
  '--provider',
  '--api',
  '--model',
  '--at',
];

/** The values an option (or set-provider's argument) takes, completed in place of file names. */
/** Read when a script is written, so every registered provider and API is in it. */
const values = (): ReadonlyArray<[string, readonly string[]]> => [
  ['completion', ['bash', 'zsh', 'fish']],
  ['--format', ['md', 'json', 'html']],
  ['--output-format', ['text', 'json', 'stream-json']],
  ['--approval', APPROVAL_POLICIES],
  ['--reasoning', REASONING_LEVELS],
  ['set-provider', providerList()],
  ['--provider', providerList()],
  ['--api', allApiNames()],
  ['--auth', [...signInModes(), 'key']],
];

/** Conversation ids come from the shell calling `cody list --json` only when an id is wanted. */
const ID_LOOKUP = `cody list --json 2>/dev/null | sed -n 's/^ *"id": "\\([0-9a-f-]*\\)",*$/\\1/p'`;

export function completionScript(shell: 'bash' | 'zsh' | 'fish', commands: readonly string[]): string {
  const words = commands.join(' ');
  switch (shell) {
    case 'bash':
      return `# cody bash completion: eval "$(cody completion bash)"
_cody() {
  local cur prev
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${words}" -- "$cur") )
    return
  fi
  case "$cur" in
    -*) COMPREPLY=( $(compgen -W "${OPTIONS.join(' ')}" -- "$cur") ); return ;;
  esac
  case "$prev" in
    ${ID_COMMANDS.join('|')}|--conversation)
      COMPREPLY=( $(compgen -W "$(${ID_LOOKUP})" -- "$cur") ); return ;;
${values()
  .map(
    ([word, choices]) =>
      `    ${word}) COMPREPLY=( $(compgen -W "${choices.join(' ')}" -- "$cur") ); return ;;`,
  )
  .join('\n')}
  esac
  COMPREPLY=( $(compgen -f -- "$cur") )
}
complete -F _cody cody
`;
    case 'zsh':
      return `#compdef cody
# cody zsh completion: eval "$(cody completion zsh)" (after compinit)
_cody() {
  if (( CURRENT == 2 )); then
    compadd -- ${words}
    return
  fi
  case "$words[CURRENT-1]" in
    ${ID_COMMANDS.join('|')}|--conversation) compadd -- $(${ID_LOOKUP}); return ;;
${values()
  .map(([word, choices]) => `    ${word}) compadd -- ${choices.join(' ')}; return ;;`)
  .join('\n')}
  esac
  if [[ "$PREFIX" == -* ]]; then
    compadd -- ${OPTIONS.join(' ')}
  else
    _files
  fi
}
compdef _cody cody
`;
    case 'fish':
      return [
        '# cody fish completion: cody completion fish | source',
        `complete -c cody -f -n '__fish_use_subcommand' -a '${words}'`,
        `complete -c cody -f -n '__fish_seen_subcommand_from ${ID_COMMANDS.join(' ')}' -a '(${ID_LOOKUP})'`,
        `complete -c cody -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'`,
        `complete -c cody -f -n '__fish_seen_subcommand_from set-provider' -a '${providerList().join(' ')}'`,
        ...OPTIONS.map((option) => {
          const choices = values().find(([word]) => word === option)?.[1];
          return `complete -c cody -l '${option.slice(2)}'${choices ? ` -x -a '${choices.join(' ')}'` : ''}`;
        }),
        '',
      ].join('\n');
  }
}

export function runCompletion(
  options: { shell: 'bash' | 'zsh' | 'fish'; commands: readonly string[] },
  io: Io,
): Promise<number> {
  io.stdout.write(completionScript(options.shell, options.commands));
  return Promise.resolve(ExitCode.ok);
}
