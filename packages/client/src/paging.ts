/** One page of a list endpoint, as every list answers. */
export interface Page<Item> {
  /** The page's items. */
  readonly data: ReadonlyArray<Item>
  /** `next` is null on the last page. */
  readonly links: { readonly next: string | null }
}

/**
 * Every page of a list, from the first, until the API's `links.next` is null. `fetchPage` reads
 * one page by number, so the query stays typed by the generated paths.
 *
 * @example
 * declare const client: PaymentsClient
 * for await (const companies of eachPage((page) =>
 *   dataOf(client.GET("/api/v1/companies", { params: { query: { page, per_page: 100 } } })),
 * )) console.log(companies.length)
 */
export async function* eachPage<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
): AsyncGenerator<ReadonlyArray<Item>, void, undefined> {
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page)
    yield answer.data
    if (answer.links.next === null) return
  }
}

/**
 * Every item of a list, page after page (see {@link eachPage}).
 *
 * @example
 * declare const client: PaymentsClient
 * for await (const company of eachItem((page) => dataOf(client.GET("/api/v1/companies", { params: { query: { page } } }))))
 *   console.log(company.name)
 */
export async function* eachItem<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
): AsyncGenerator<Item, void, undefined> {
  for await (const items of eachPage(fetchPage)) yield* items
}
