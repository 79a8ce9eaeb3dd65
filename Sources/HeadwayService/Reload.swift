
/// Swapping the configuration of a running core for the next one: jobs, clients and learned
/// durations stay; only devices and settings change. A next configuration that does not load, or
/// whose devices do not open, leaves the one in force (reopened) and says why.
struct Reload {
    enum Outcome {
        case reloaded(ServiceConfiguration)
        case kept(problem: String)
    }

    let load: ServiceHost.Loader
    let open: ServiceHost.Opener
    let logger: ServiceLogger

    func callAsFunction(from current: ServiceConfiguration, core: ServiceCore) -> Outcome {
        let next: ServiceConfiguration
        do {
            next = try load()
        } catch {
            return .kept(problem: error.description)
        }
        // GPIO lines and buses are held exclusively: the old devices go before the new ones open.
        core.reconfigure(.none, settings: current.settings)
        do {
            core.reconfigure(try open(next), settings: next.settings)
            return .reloaded(next)
        } catch {
            do {
                core.reconfigure(try open(current), settings: current.settings)
            } catch let reopening {
                logger.critical("the configuration in force cannot open its devices again either: \(reopening.description); running without outputs")
            }
            return .kept(problem: error.description)
        }
    }
}
