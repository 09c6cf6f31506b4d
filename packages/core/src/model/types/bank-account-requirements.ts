// The types of `model/bank-account-requirements.ts`, written out (docs/decisions.md, "Public types").

/**
 * One entry of `GET /api/v1/payment_methods`.
 */
export interface PaymentMethod {
  /** LOCAL or SWIFT. */
  readonly transfer_method: string
  /** For example ACH, FEDWIRE; may be empty. */
  readonly local_clearing_systems: ReadonlyArray<string>
}

/**
 * How a value is checked. `type` names a check beyond the pattern where the real world has one (a
 * checksum, or a BIC's registered country); every rule also carries the pattern and lengths a
 * form can check by itself.
 */
export interface FieldRule {
  /** REGEX, or the check the value must also pass (IBAN, BIC, ABA_ROUTING_NUMBER, CLABE) */
  readonly type: "REGEX" | "IBAN" | "BIC" | "ABA_ROUTING_NUMBER" | "CLABE"
  readonly pattern: string
  readonly minimum_length: number | null
  readonly maximum_length: number | null
}

export interface RequirementField {
  readonly enabled: boolean
  /** Dot path of the value inside beneficiary_details. */
  readonly path: string
  readonly required: boolean
  readonly field: {
    readonly key: string
    readonly label: string
    readonly type: "INPUT" | "SELECT" | "RADIO" | "TRANSFER_METHOD"
    readonly options: ReadonlyArray<{
      readonly label: string
      readonly value: string
    }>
    readonly default: string | null
    /** Changing this value changes the form: ask again. */
    readonly refresh: boolean
  }
  readonly rule: FieldRule | null
}

/** `data` of `POST /api/v1/bank_account_requirements`: the form a recipient bank account must fill. */
export interface BankAccountRequirements {
  readonly condition: {
    readonly account_currency: string
    readonly bank_country_code: string
    readonly entity_type: "COMPANY" | "PERSONAL"
    readonly local_clearing_system: string | null
    readonly transfer_method: string
  }
  readonly fields: ReadonlyArray<RequirementField>
}

/**
 * Query of `GET /api/v1/payment_methods` and body of `POST /api/v1/bank_account_requirements`.
 * Every field is optional here only so that the engine can answer each missing one of the first
 * three with its own `<name> is required`, all at once.
 */
export interface RequirementsRequest {
  readonly country_code?: string
  readonly currency_code?: string
  readonly entity_type?: string
  readonly transfer_method?: string
  readonly local_clearing_system?: string
}

/** Body of `POST /api/v1/bank_account_requirements`, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface RequirementsBody {
  readonly transfer_method?: string
  readonly entity_type?: string
  readonly local_clearing_system?: string
  readonly country_code?: string
  readonly currency_code?: string
}
