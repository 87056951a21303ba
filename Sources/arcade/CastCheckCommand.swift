import ArcadeHost
import ArcadeLua
import ArgumentParser

extension Arcade {
    struct CastCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cast-check",
            abstract: "Check that a file is a valid asciicast v2 recording (what --cast writes), strictly.")

        @Argument(help: ArgumentHelp("The recording.", valueName: "FILE"))
        var file: String

        func run() throws {
            guard let bytes = FileBytes.read(file, limit: 1 << 30) else {
                Output.err("arcade cast-check: cannot read '\(file)'\n")
                throw ExitCode(2)
            }
            do {
                let cast = try AsciicastFile.parse(bytes)
                let seconds = cast.events.last?.time ?? 0
                let output = cast.events.filter { $0.code == "o" }.count
                Output.out("ok    \(file): asciicast v2, \(cast.header.width)x\(cast.header.height), "
                           + "\(cast.events.count) events (\(output) output), \(seconds) s\n")
            } catch {
                Output.out("FAIL  \(file): \(error)\n")
                throw ExitCode(1)
            }
        }
    }
}
