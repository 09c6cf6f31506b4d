import { type EndpointChanges, inProcessEndpointChanges } from "@payments-engine/core"
import pg from "pg"

/** Options of {@link postgresEndpointChanges}. */
export interface PostgresEndpointChangesOptions {
  readonly connectionString: string
  readonly connectionTimeoutMs: number
  /** The storage's schema: processes of one schema hear each other, and no other. */
  readonly schema: string | undefined
  /** Sends a NOTIFY on a connection of the storage's pool. */
  readonly notify: (channel: string, payload: string) => Promise<unknown>
}

/** NOTIFY channels are identifiers: at most 63 bytes. A clash of two long schemas only costs reads. */
const channelOf = (schema: string | undefined) => `pe_endpoint_changes:${schema ?? ""}`.slice(0, 63)

/**
 * Endpoint changes across the processes sharing a Postgres schema: an announcement tells this
 * process's lanes at once and NOTIFYs the others, which hear it on a LISTEN session each opens
 * when its storage opens (again on next use once lost). While that session is not open the
 * channel is not trusted: every watch is told at once, so lanes read before each send, as they
 * would without a channel. A lost session tells every watch too, since announcements may have
 * been missed.
 *
 * A NOTIFY that cannot be sent (the database unreachable just after the commit, or the process
 * dying between the commit and it) leaves the other processes' lanes in flight untold: they send
 * the rest of what they hold (one lane, at most `maxLaneDeliveries`); the next lane reads the
 * endpoint when it is held.
 */
export const postgresEndpointChanges = (
  options: PostgresEndpointChangesOptions,
): EndpointChanges & { close(): Promise<void> } => {
  const local = inProcessEndpointChanges()
  local.trusted = false
  const channel = channelOf(options.schema)
  let session: Promise<pg.Client> | undefined
  let closed = false
  const lose = () => {
    session = undefined
    local.trusted = false
    local.lost()
  }
  const open = async () => {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMs,
    })
    client.on("error", lose)
    client.on("end", lose)
    client.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) local.heard(message.payload)
    })
    await client.connect()
    await client.query(`listen ${pg.escapeIdentifier(channel)}`)
    // Announcements made before this session listened were not heard: watches from before ask.
    local.lost()
    local.trusted = true
    return client
  }
  /** Opens the LISTEN session when none is open or opening; watches meanwhile are told at once. */
  const listen = () => {
    if (closed || session !== undefined) return
    session = open().catch(() => {
      session = undefined
      return undefined as never
    })
  }
  // Opened now, so that the first lanes need not read while it opens.
  listen()
  return {
    announce: async (endpointId) => {
      await local.announce(endpointId)
      await options.notify(channel, endpointId).catch(() => undefined)
    },
    mark: () => {
      listen()
      return local.mark()
    },
    watch: (endpointId, since, told) => {
      listen()
      return local.watch(endpointId, since, told)
    },
    close: async () => {
      closed = true
      const opening = session
      session = undefined
      const client = await opening?.catch(() => undefined)
      client?.removeAllListeners("end")
      client?.removeAllListeners("error")
      client?.on("error", () => {})
      await client?.end().catch(() => undefined)
    },
  }
}
