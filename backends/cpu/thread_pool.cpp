#include "backends/cpu/thread_pool.h"

namespace gk {
namespace {

// About 20-60 us of pause instructions (65-140 cycles each on Zen and recent
// Intel cores) // untuned
constexpr int kSpins = 1000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  if (threads <= 0) threads = 1;
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain(const std::function<void(int64_t)>& fn) {
  for (;;) {
    int64_t task = next_.fetch_add(1, std::memory_order_relaxed);
    if (task >= tasks_) break;
    fn(task);
  }
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(int64_t)>* job = nullptr;
    for (int i = 0; i < kSpins && generation_.load(std::memory_order_acquire) == seen; ++i) cpu_relax();
    {
      std::unique_lock lock(mutex_);
      if (job_ == nullptr) seen = generation_;  // a launch this worker missed is over: spin for the next
      wake_.wait(lock, [&] { return stop_ || (job_ != nullptr && generation_ != seen); });
      if (stop_) return;
      seen = generation_;
      job = job_;
      ++active_;
    }
    drain(*job);
    {
      std::lock_guard lock(mutex_);
      if (--active_ == 0) done_.notify_all();
    }
  }
}

void ThreadPool::parallel_for(int64_t tasks, const std::function<void(int64_t)>& fn) {
  if (tasks <= 0) return;
  if (tasks == 1 || workers_.empty()) {
    for (int64_t t = 0; t < tasks; ++t) fn(t);
    return;
  }
  std::lock_guard launch(launch_mutex_);
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    tasks_ = tasks;
    next_.store(0);
    ++generation_;
  }
  wake_.notify_all();
  drain(fn);
  for (int i = 0; i < kSpins && active_.load(std::memory_order_acquire) != 0; ++i) cpu_relax();
  std::unique_lock lock(mutex_);
  // Workers join only while job_ is set (under this mutex), so once active_ is 0
  // here no worker can still be inside fn.
  done_.wait(lock, [&] { return active_ == 0; });
  job_ = nullptr;
}

}  // namespace gk
