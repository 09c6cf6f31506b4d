// parse-prometheus-text-format ships no types: the shapes it documents for what we read.
declare module "parse-prometheus-text-format" {
  interface PrometheusSample {
    readonly labels?: Readonly<Record<string, string>>
    readonly value?: string
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }
  interface PrometheusFamily {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<PrometheusSample>
  }
  const parsePrometheusTextFormat: (text: string) => Array<PrometheusFamily>
  export default parsePrometheusTextFormat
}
