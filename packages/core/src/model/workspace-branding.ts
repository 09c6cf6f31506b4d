import { Schema } from "effect"
import { Text, Timestamp } from "./fields.ts"
import { WorkspaceId } from "./ids.ts"
import { limitedText, optionalField } from "./onboarding-fields.ts"
import type * as Types from "./types/workspace-branding.ts"
import type { WorkspaceBrandingRecord } from "./types/workspace-branding.ts"

export * from "./types/workspace-branding.ts"

/**
 * How a workspace's hosted pages introduce it: the name a person reads, a logo and an accent
 * colour (DECISIONS "Hosted pages"). Every part is optional; a page without one shows none.
 */

/** Messages of the branding's fields. */
export const brandingMessages = {
  logoUrl: "must be an https URL",
  accentColor: "must be a colour as #rrggbb, for example #0b5fff",
  blank: "can't be blank (send null to remove it)",
} as const

const isHttpsUrl = (text: string) => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  // No credentials: a logo's address is shown to every person who opens a page.
  return url.protocol === "https:" && url.hostname.length > 0 && url.username === "" && url.password === ""
}

/** The name a person reads at the top of every hosted page. */
const DisplayName = limitedText(100).pipe(
  Schema.filter((s) => s.trim() !== "", { message: () => brandingMessages.blank }),
  Schema.annotations({ examples: ["Initech Payments"] }),
)

/** The address of a logo image, served over https (a page over https shows no insecure image). */
const LogoUrl = limitedText(2048).pipe(
  Schema.filter(isHttpsUrl, { message: () => brandingMessages.logoUrl }),
  Schema.annotations({ examples: ["https://cdn.initech.example/logo.png"] }),
)

/** A colour as six hexadecimal digits, which a page puts in its style sheet as it is. */
const AccentColor = Text.pipe(
  Schema.filter((s) => /^#[0-9a-fA-F]{6}$/.test(s), { message: () => brandingMessages.accentColor }),
  Schema.annotations({ examples: ["#0b5fff"] }),
)

/** A workspace's branding as the API returns it; a part never set is null. */
export const WorkspaceBranding = Schema.Struct({
  display_name: Schema.NullOr(Schema.String),
  logo_url: Schema.NullOr(Schema.String),
  /** Lower case `#rrggbb`. */
  accent_color: Schema.NullOr(Schema.String),
}).annotations({ identifier: "WorkspaceBranding" })
export type WorkspaceBranding = Types.WorkspaceBranding

/** A change of the branding: a field left out is kept, null removes it. */
export const WorkspaceBrandingUpdate = Schema.Struct({
  display_name: optionalField(DisplayName),
  logo_url: optionalField(LogoUrl),
  accent_color: optionalField(AccentColor),
}).annotations({ identifier: "WorkspaceBrandingUpdate" })
export type WorkspaceBrandingUpdate = Types.WorkspaceBrandingUpdate

/** The branding as storage keeps it: at most one per workspace. The storage port's `WorkspaceBrandingRecord` is its type. */
export const StoredWorkspaceBranding = Schema.Struct({
  workspace_id: WorkspaceId,
  display_name: Schema.NullOr(Schema.String),
  logo_url: Schema.NullOr(Schema.String),
  accent_color: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
})

/** A workspace with no branding. */
export const noBranding: WorkspaceBranding = { display_name: null, logo_url: null, accent_color: null }

/** A stored branding (or none) as the API returns it. */
export const toWorkspaceBranding = (row: WorkspaceBrandingRecord | undefined): WorkspaceBranding =>
  row === undefined
    ? noBranding
    : { display_name: row.display_name, logo_url: row.logo_url, accent_color: row.accent_color }
