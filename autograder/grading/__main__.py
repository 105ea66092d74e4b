import sys

from autograder.grading.grade import main

sys.exit(main())
