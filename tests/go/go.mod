module curator.test/bundlethreads

go 1.19
