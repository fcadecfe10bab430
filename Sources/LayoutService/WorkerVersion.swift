/// The worker's version: `layout-worker --version`, the `layout-worker-version` header of dead letters.
public enum WorkerVersion {
    public static let current = "0.2.0"
}
