/**
 * How a lane sending an endpoint's deliveries learns that the endpoint was deactivated or
 * deleted, instead of asking storage before each send. The use case that deactivates or deletes
 * an endpoint announces it once its transaction has committed; every lane of that endpoint that
 * watches it, in this process and (where the storage is shared) in the others, is told.
 *
 * Being told means "ask again": the lane reads the endpoint before its next send (the endpoint may
 * have been switched back on since). A channel that cannot promise to tell (a connection to the
 * other processes not open yet, or lost) tells every watcher at once, so that they ask.
 */
export interface EndpointChanges {
  /**
   * Tells every watcher of `endpointId` that it changed: this process's before the promise
   * resolves, the other processes' as their channel carries it. Call it after the commit.
   */
  announce(endpointId: string): Promise<void>
  /** A point in this process's announcements: a watch from it hears every one made after it. */
  mark(): number
  /**
   * Calls `told` (at most once) when `endpointId` is announced after `since`, at once if it was
   * already or if the channel cannot promise to tell; until the returned function is called.
   */
  watch(endpointId: string, since: number, told: () => void): () => void
}

/** Announcements kept for watches that start from an older mark: past it a watch is told at once. */
const announcementsKept = 1024

/**
 * Endpoint changes within one process: enough for a storage that one process owns (SQLite,
 * PGlite), and the local half of a shared storage's channel (`heard` takes what another process
 * announced; `lost` tells every watcher when the channel dropped).
 */
export const inProcessEndpointChanges = (): EndpointChanges & {
  /** Tells this process's watchers of `endpointId`, as another process announced it. */
  heard(endpointId: string): void
  /** Tells every watcher, as the channel may have dropped announcements; later watches are told at once while `trusted` is false. */
  lost(): void
  /** Whether watches can trust the channel; true for one process alone. */
  trusted: boolean
} => {
  let sequence = 0
  /** The last announcements, oldest first, as [sequence, endpoint id]: every one after `knownFrom`. */
  const recent: Array<readonly [number, string]> = []
  let knownFrom = 0
  const watchers = new Map<string, Set<() => void>>()
  const heard = (endpointId: string) => {
    sequence += 1
    recent.push([sequence, endpointId])
    if (recent.length > announcementsKept) {
      recent.splice(0, recent.length - announcementsKept)
      knownFrom = recent[0]![0] - 1
    }
    const told = watchers.get(endpointId)
    if (told === undefined) return
    watchers.delete(endpointId)
    for (const tell of told) tell()
  }
  const changes = {
    trusted: true,
    heard,
    lost: () => {
      sequence += 1
      const all = [...watchers.values()]
      watchers.clear()
      recent.length = 0
      knownFrom = sequence
      for (const told of all) for (const tell of told) tell()
    },
    announce: async (endpointId: string) => heard(endpointId),
    mark: () => sequence,
    watch: (endpointId: string, since: number, told: () => void) => {
      const missed =
        !changes.trusted ||
        // Older than what is kept, or than a loss: what was announced since is not known.
        since < knownFrom ||
        recent.some(([at, id]) => at > since && id === endpointId)
      if (missed) {
        told()
        return () => {}
      }
      let set = watchers.get(endpointId)
      if (set === undefined) {
        set = new Set()
        watchers.set(endpointId, set)
      }
      const tell = () => told()
      set.add(tell)
      return () => {
        const current = watchers.get(endpointId)
        current?.delete(tell)
        if (current?.size === 0) watchers.delete(endpointId)
      }
    },
  }
  return changes
}

/** The in-process channels of storages one process owns: every engine over one of them shares its channel. */
const ownedStorageChanges = new WeakMap<object, EndpointChanges>()

/**
 * How the lanes of an engine over `storage` learn of endpoint changes: the storage's channel; for
 * a storage one process owns, one channel per storage object in this process; for a shared
 * storage without a channel, none (lanes ask before each send).
 */
export const endpointChangesOf = (storage: {
  readonly capabilities: { readonly multiProcess: boolean }
  readonly endpointChanges?: EndpointChanges
}): EndpointChanges | undefined => {
  if (storage.endpointChanges !== undefined) return storage.endpointChanges
  if (storage.capabilities.multiProcess) return undefined
  let changes = ownedStorageChanges.get(storage)
  if (changes === undefined) {
    changes = inProcessEndpointChanges()
    ownedStorageChanges.set(storage, changes)
  }
  return changes
}
