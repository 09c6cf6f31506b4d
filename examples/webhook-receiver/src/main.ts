/**
 * A webhook receiver to run beside the service in sandbox mode:
 *
 *   WEBHOOK_SECRET=whsec_... PORT=4000 npm start -w @payments-engine/example-webhook-receiver
 *
 * then create an endpoint with url http://localhost:4000/ and watch the events arrive.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { webhookReceiver } from "./receiver.ts"

const secret = process.env.WEBHOOK_SECRET
if (secret === undefined || secret === "") {
  console.error("Set WEBHOOK_SECRET to the endpoint's webhook_secret.")
  process.exit(2)
}
const port = Number(process.env.PORT ?? 4000)
const server = createServer(
  webhookReceiver({
    secret,
    onEvent: ({ id, payload }) => {
      const { event } = payload as { event?: string }
      console.log(`${id} ${event ?? "(no event name)"}`)
    },
  }),
).listen(port, () => console.log(`Receiving webhooks on http://localhost:${(server.address() as AddressInfo).port}/`))
