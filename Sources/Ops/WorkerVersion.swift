/// The worker's version: `layout-worker --version`, the `layout-worker-version` header of dead letters.
public enum WorkerVersion {
    public static let current = "0.3.0"

    /// The Swift compiler that built it.
    public static var swift: String {
        #if compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #else
        "6.1"
        #endif
    }
}
