import HeadwayMQTT
import HeadwayProtocol

/// Buttons pressed on this display, carried to the runners: the bridge controls the jobs whose
/// reporter takes commands, so the service tells it of a long press (`cancel-requested`) and of a
/// short one (`paused`, `resumed`), and it publishes them on the job's `command` topic.
extension Bridge {
    func serviceEvent(_ event: JobEvent) {
        refreshSoon()
        guard let remote = jobs.remote(event.job) else { return }
        let command: Request
        switch event.kind {
        case .cancelRequested:
            command = .stop(job: remote.job)
        case .paused, .resumed:
            let pause = event.kind == .paused
            guard remote.paused != pause else { return }
            jobs.setPaused(pause, of: event.job)
            command = pause ? .pause(job: remote.job) : .resume(job: remote.job)
        case .finished, .lost:
            jobs.forget(event.job)
            return
        case .begun:
            return
        }
        let message = JobPublication.command(command, source: remote.source, job: remote.job)
        guard let session else {
            log("could not ask the reporter of \(event.job) to \(command.operationName): not connected to \(settings.address)")
            return
        }
        do throws(MQTTSession.Failure) {
            try session.publish(message.topic, message.payload, retained: false)
            log("asked the reporter of \(event.job) to \(command.operationName)")
        } catch {
            log("could not ask the reporter of \(event.job) to \(command.operationName): \(error)")
        }
    }
}

extension Request {
    var operationName: String {
        switch self {
        case .stop: "stop"
        case .pause: "pause"
        case .resume: "resume"
        default: "act"
        }
    }
}
