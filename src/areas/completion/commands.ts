// The commands, topics and flags oclif knows, in the shape the completion generators take.
import type {Interfaces} from '@oclif/core'

import type {CompletionCommand} from './fish.js'

export function completionCommands(config: Interfaces.Config): CompletionCommand[] {
  return config.commands
    .filter((c) => !c.hidden)
    .map((c) => ({
      id: c.id.replaceAll(':', ' '),
      summary: c.summary ?? c.description,
      flags: Object.entries(c.flags ?? {})
        .filter(([, f]) => !f.hidden)
        .map(([name, f]) => ({
          name,
          char: f.char,
          summary: f.summary ?? f.description,
          value: f.type === 'option',
          options: f.type === 'option' ? f.options : undefined,
        })),
    }))
}

export const completionTopics = (config: Interfaces.Config): Record<string, string | undefined> =>
  Object.fromEntries(config.topics.map((t) => [t.name.replaceAll(':', ' '), t.description]))
