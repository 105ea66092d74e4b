import sys

from autograder.mutation.analysis import main

sys.exit(main())
