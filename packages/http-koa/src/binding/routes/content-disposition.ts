import contentDisposition from "content-disposition"

/**
 * `Content-Disposition: attachment` offering `fileName`, encoded by `content-disposition` (jshttp,
 * RFC 6266) as ASCII only: a quoted `filename` where every character outside printable ASCII is
 * `_` (quotes and backslashes escaped) and, when that differs from the name, `filename*=UTF-8''`
 * with the whole name percent-encoded. No character of the name can end the header or add a
 * parameter, and no byte above 0x7E is sent.
 *
 * @example
 * attachmentDisposition("statement.pdf") // attachment; filename="statement.pdf"
 * attachmentDisposition("Relevé.pdf") // attachment; filename="Relev_.pdf"; filename*=UTF-8''Relev%C3%A9.pdf
 */
export const attachmentDisposition = (fileName: string): string =>
  contentDisposition(fileName, { type: "attachment", fallback: fileName.replace(/[^\x20-\x7e]/g, "_") })
