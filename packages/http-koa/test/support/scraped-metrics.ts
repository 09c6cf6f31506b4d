import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { expect } from "vitest"

/** One scrape of `GET /metrics`, parsed by a maintained parser of the Prometheus text format. */
export interface Scrape {
  /** Every label value of every series of ours (`payments_engine_*`). */
  readonly labelValues: ReadonlyArray<string>
  /** The type of a metric family, as its `# TYPE` line says (`COUNTER`, `HISTOGRAM`, ...). */
  readonly typeOf: (name: string) => string | undefined
  /**
   * A counter's or gauge's value, or a histogram's count of observations, summed over the series
   * whose labels include `labels`; 0 when there is none (prom-client shows a labelled series only
   * once it moved).
   */
  readonly value: (name: string, labels?: Readonly<Record<string, string>>) => number
}

/**
 * Scrapes `url` and parses what it answers, which must be the Prometheus text format. The parser
 * folds a histogram's series into one, losing their labels, so the text is parsed a second time
 * with histograms declared untyped: each `_bucket`, `_sum` and `_count` series then keeps its labels.
 */
export const scrape = async (url: string): Promise<Scrape> => {
  const answer = await fetch(url)
  expect(answer.status).toBe(200)
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  const text = await answer.text()
  const families = parsePrometheusTextFormat(text)
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"))
  const typeOf = (name: string) => families.find((family) => family.name === name)?.type
  return {
    labelValues: series
      .filter((family) => family.name.startsWith("payments_engine_"))
      .flatMap((family) => family.metrics.flatMap((sample) => Object.values(sample.labels ?? {}))),
    typeOf,
    value: (name, labels = {}) => {
      const seriesName = typeOf(name) === "HISTOGRAM" ? `${name}_count` : name
      return series
        .filter((family) => family.name === seriesName)
        .flatMap((family) => family.metrics)
        .filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value))
        .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0)
    },
  }
}
