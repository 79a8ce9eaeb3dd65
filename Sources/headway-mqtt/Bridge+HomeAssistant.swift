import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// Home Assistant discovery: the display's entities (``HomeAssistantDiscovery``), sent when the
/// bridge connects and again when Home Assistant says it started; the state of the job shown,
/// published when it changes; the cancel button acting as a long press on the job shown.
extension Bridge {
    /// Looks at the service soon (after an event or a message), at most once per `delay`.
    func refreshSoon(after delay: Double = 0.2) {
        guard homeAssistant != nil else { return }
        let due = JobPublication.now + delay
        refreshAt = min(refreshAt ?? due, due)
    }

    func publishDiscovery() throws(MQTTSession.Failure) {
        guard let homeAssistant, let session else { return }
        for entity in homeAssistant.entities {
            try session.publish(homeAssistant.configTopic(entity), Array(entity.config.text.utf8), retained: true)
        }
        publishedState = nil
        refreshSoon(after: 0)
    }

    /// Handles Home Assistant's own topics; false for any other message.
    func homeAssistantMessage(_ message: MQTTSession.Message) -> Bool {
        guard let homeAssistant else { return false }
        switch message.topic {
        case homeAssistant.statusTopic:
            if message.payload == Array("online".utf8) {
                do throws(MQTTSession.Failure) { try publishDiscovery() } catch { log("could not send discovery: \(error)") }
            }
            return true
        case homeAssistant.cancelTopic:
            guard message.payload == Array(HomeAssistantDiscovery.pressPayload.utf8) else { return true }
            if let shownJob {
                log("Home Assistant's cancel button: stopping \(shownJob)")
                send(.stop(job: shownJob))
            } else {
                log("Home Assistant's cancel button: no job is shown")
            }
            return true
        default:
            return false
        }
    }

    /// Asks the service what it shows and publishes it when it changed; while a job runs it looks
    /// again every second while a job runs (progress of local jobs, the ETA), every 5 s while only
    /// outcomes are shown, and not at all when idle until told of a change.
    func refreshHomeAssistant() {
        refreshAt = nil
        guard let session else { return }
        guard case .jobs(let jobs, _, _, _)? = send(.status) else {
            refreshAt = JobPublication.now + 5
            return
        }
        let shown = jobs.first(where: \.shown)
        shownJob = shown?.job
        // Until the service forgets the last job (its outcome shown for a while): then idle.
        if !jobs.isEmpty { refreshAt = JobPublication.now + (jobs.contains { !$0.phase.isEnded } ? 1 : 5) }
        let state = HomeAssistantDiscovery.statePayload(shown, wallClock: WallClock.now)
        guard state != publishedState, let homeAssistant else { return }
        do throws(MQTTSession.Failure) {
            try session.publish(homeAssistant.stateTopic, Array(state.utf8), retained: true)
            publishedState = state
        } catch {
            log("could not publish the display's state: \(error)")
        }
    }
}

extension String {
    /// A phase name of a job that is over (its outcome).
    fileprivate var isEnded: Bool { Outcome(rawValue: self) != nil || self == "lost" }
}
