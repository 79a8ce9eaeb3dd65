// A program that reports to the service names outcomes, progress errors and the protocol's
// events and job statuses: the layers that define them come with the product.
@_exported import HeadwayCore
@_exported import HeadwayProtocol
