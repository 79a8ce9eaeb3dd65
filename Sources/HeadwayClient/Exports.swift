// A program that reports to the service names outcomes, progress errors, the protocol's events
// and job statuses, and what the client core says of its connection, buttons and refusals: the
// layers that define them come with the product.
@_exported import HeadwayCore
@_exported import HeadwayProtocol
@_exported import HeadwayReporting
