import FoundationEssentials
import Glibc
import PrivateFiles

extension DemoConfig {
    /// Writes the built-in demo config to a fresh private directory (`mkdtemp`, 0700, a name no
    /// one can guess) and returns the file's path. Never a predictable path: another local user
    /// could create it first and swap in a config of their own, which the demo would then load
    /// and hot-reload.
    public static func writePrivateCopy(in temporary: String = FileManager.default.temporaryDirectory.path) throws -> String {
        var template = Array((temporary.hasSuffix("/") ? temporary : temporary + "/").utf8CString.dropLast())
        template += Array("hammock-demo-XXXXXX".utf8CString)
        guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw PrivateFiles.Failure(description: "cannot create a private directory in \(temporary): \(String(cString: strerror(errno)))")
        }
        let path = directory + "/demo.yaml"
        try PrivateFiles.writeAtomically(Data(yaml.utf8), to: URL(fileURLWithPath: path))
        return path
    }
}
