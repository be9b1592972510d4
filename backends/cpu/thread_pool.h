// A fixed pool of worker threads for kernel launches. parallel_for hands out task
// indices from an atomic counter; the calling thread works too. Launches from
// several threads take turns (one launch already fills every core). Between
// launches workers spin briefly before they sleep, and the caller spins briefly
// before it waits for them: a model's launches come microseconds apart, and a
// futex wake-up costs more than most of them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gk {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // total, caller included; <= 0: hardware
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs fn(task) for task in [0, tasks); returns when all are done.
  void parallel_for(int64_t tasks, const std::function<void(int64_t)>& fn);

 private:
  void worker_loop();
  void drain(const std::function<void(int64_t)>& fn);

  std::vector<std::thread> workers_;
  std::mutex launch_mutex_;  // one parallel_for at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int64_t)>* job_ = nullptr;
  int64_t tasks_ = 0;
  std::atomic<int64_t> next_{0};
  std::atomic<int> active_{0};          // written under mutex_, read by the caller's spin
  std::atomic<uint64_t> generation_{0};  // written under mutex_, read by the workers' spin
  bool stop_ = false;
};

}  // namespace gk
