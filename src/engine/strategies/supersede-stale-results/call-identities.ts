/**
 * The resource identities of a tool call under both modes, with their categories: made once per
 * call part (parts are immutable) and kept on it, their strings shared over the conversation
 * (shared-strings.ts).
 */
import type { ToolCallPart } from '../../model.ts'
import { withFields } from '../../objects.ts'
import { categorizeFaithful, categorizeFixed, type ToolCategory } from './categories.ts'
import { extractFaithful, extractFixed, type ResourceIdentity } from './identity.ts'
import { continuationIdentity, type SessionLink } from './sessions.ts'
import { withSharedStrings, type Share } from './shared-strings.ts'

interface CallIdentities {
  readonly cwd: string | undefined
  readonly fCat: ToolCategory
  readonly xCat: ToolCategory
  readonly faithful: ResourceIdentity | null
  readonly fixed: ResourceIdentity | null
}

const callIdentities = new WeakMap<ToolCallPart, CallIdentities>()

/** Identities of a call; a `write_stdin` to a known session continues the session's command. */
export function identitiesOf(
  call: ToolCallPart,
  cwd: string | undefined,
  share: Share,
  link?: SessionLink,
): CallIdentities {
  const own = ownIdentities(call, cwd, share)
  const session = link ? ownIdentities(link.origin, cwd, share).fixed : null
  if (!link || !session) return own
  const fixed = withSharedStrings(continuationIdentity(session, link), share)
  return withFields(own, { xCat: fixed.readAs ?? own.xCat, fixed })
}

function ownIdentities(call: ToolCallPart, cwd: string | undefined, share: Share): CallIdentities {
  let id = callIdentities.get(call)
  if (!id || id.cwd !== cwd) {
    const fCat = categorizeFaithful(call.name)
    const named = categorizeFixed(call.name)
    const fixed = extractFixed(call.name, named, call.argsRaw, cwd)
    const faithful = extractFaithful(call.name, fCat, call.argsRaw)
    id = {
      cwd,
      fCat,
      // A shell command that only reads is judged by what it reads (fixed mode only).
      xCat: fixed?.readAs ?? named,
      faithful: faithful && withSharedStrings(faithful, share),
      fixed: fixed && withSharedStrings(fixed, share),
    }
    callIdentities.set(call, id)
  }
  return id
}
