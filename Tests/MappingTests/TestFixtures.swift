import TestSupport

typealias TestFixtures = Fixtures
