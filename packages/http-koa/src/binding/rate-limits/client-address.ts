import ipaddr from "ipaddr.js"

/**
 * The key an address is counted under: an IPv4 address as is (also when it arrives IPv4-mapped,
 * `::ffff:192.0.2.1`), an IPv6 address by its /64 network, which one subscriber usually holds
 * whole (counting single IPv6 addresses would let one client rotate through 2^64 of them).
 * Anything unparsable counts as itself.
 *
 * @example
 * clientAddressKey("::ffff:192.0.2.1") // "192.0.2.1"
 * clientAddressKey("2001:db8:1:2:3:4:5:6") // "2001:db8:1:2::/64"
 */
export const clientAddressKey = (address: string): string => {
  if (!ipaddr.isValid(address)) return address
  const parsed = ipaddr.process(address)
  if (parsed.kind() === "ipv4") return parsed.toString()
  const network = [...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]
  return `${new ipaddr.IPv6(network).toString()}/64`
}
