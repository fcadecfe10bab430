public import LayoutJSON

/// A compiled mapping condition: a small, side-effect-free boolean expression over a row model and its position.
public struct Condition: Sendable, CustomStringConvertible {
    /// The source text, as written in the config.
    public let source: String
    /// The parsed expression.
    public let expression: ConditionExpression

    /// Largest expression accepted, in nodes; evaluation time is linear in it.
    public static let maxNodes = 256
    /// Deepest nesting accepted.
    public static let maxDepth = 32

    /// Parses and type-checks `source`; errors carry the line and column inside `source`.
    public init(_ source: String) throws(ConditionError) {
        var parser = ConditionParser(source)
        self.expression = try parser.parse()
        self.source = source
    }

    public var description: String { source }

    /// A canonical text for the expression: equal for conditions that cannot be told apart by their structure.
    public var canonical: String { expression.canonical }
}

/// A syntax or type error in a condition, with its 1-based line and column.
public struct ConditionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// The variables a condition can name besides the model's fields.
public enum ConditionVariable: String, Sendable, CaseIterable {
    /// The row's index within its section.
    case row
    /// The section's index within the record.
    case section
    /// The section's content type (`@type`).
    case sectionType
}

/// A literal value in a condition.
public enum ConditionLiteral: Sendable, Equatable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// Comparison operators.
public enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// String (and list-membership) tests.
public enum StringTest: String, Sendable {
    case startsWith, endsWith, contains
}

/// The expression tree of a condition.
public indirect enum ConditionExpression: Sendable {
    case literal(ConditionLiteral)
    case field(FieldPath)
    case variable(ConditionVariable)
    case exists(FieldPath)
    case compare(ComparisonOperator, ConditionExpression, ConditionExpression)
    case member(ConditionExpression, [ConditionLiteral])
    case test(StringTest, ConditionExpression, ConditionExpression)
    case and([ConditionExpression])
    case or([ConditionExpression])
    case not(ConditionExpression)

    /// Whether this node yields a boolean (rather than a value to compare).
    var isBoolean: Bool {
        switch self {
        case .literal(.bool), .exists, .compare, .member, .test, .and, .or, .not: return true
        default: return false
        }
    }
}
